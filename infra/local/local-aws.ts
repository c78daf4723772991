/** The embedded servers accept any credentials; the SDK only needs some to sign with. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'us-east-1';
/** The account the local workflow pretends to run in: the ARNs it makes up name it. */
export const FAKE_ENV = { partition: 'aws', region: LOCAL_REGION, account: '000000000000' };
