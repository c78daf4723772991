/** What tokens.ts takes from jose, in the chunk it loads on first use. */
export { errors, jwtVerify, SignJWT } from 'jose';
