import { createServiceApp } from './service-app.ts';

createServiceApp().app.synth();
