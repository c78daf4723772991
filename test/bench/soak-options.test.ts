import { expect, it } from 'vitest';
import { parseSoakOptions } from '../../bench/soak.ts';

it('runs ten minutes with a row a minute unless told otherwise', () => {
  expect(parseSoakOptions([])).toEqual({ minutes: 10, everySeconds: 60 });
  expect(parseSoakOptions(['--minutes', '60'])).toEqual({ minutes: 60, everySeconds: 60 });
  expect(parseSoakOptions(['--minutes', '1'])).toEqual({ minutes: 1, everySeconds: 6 });
  expect(parseSoakOptions(['--minutes', '2', '--every', '30'])).toEqual({ minutes: 2, everySeconds: 30 });
});

it('refuses a duration that is not a positive number', () => {
  expect(() => parseSoakOptions(['--minutes', 'ten'])).toThrow('--minutes takes a positive number, got "ten"');
  expect(() => parseSoakOptions(['--minutes'])).toThrow('--minutes takes a positive number');
});
