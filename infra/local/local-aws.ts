/** The embedded servers accept any credentials; the SDK only needs some to sign with. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'us-east-1';
