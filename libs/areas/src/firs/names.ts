/** The Nigerian area's names in shared places: its TIN identifier scheme and its sealed secrets. */
export const TIN_SCHEME = 'NG:TIN';
export const EMAIL_SECRET = 'firs.email';
export const PASSWORD_SECRET = 'firs.password';
