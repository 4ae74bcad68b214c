// The API key format both sides share: url makes keys (url/api-keys.ts), auth's handler recognizes them.

/** API_KEY_PREFIX starts every API key, so the auth handler tells keys from tokens without trying both. */
export const API_KEY_PREFIX = "sk_";
