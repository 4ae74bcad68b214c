// The only global names Encore's resolver knows (tsparser/src/parser/universe.ts): these utility
// types, Promise, Date and Array. Any other global (Uint8Array, Map, Buffer, ...) is an "unknown
// identifier" to it. The declarations mean what TypeScript's lib says; Encore evaluates them with
// its own rules.
export const UNIVERSE_TS = `
export class Promise<T> {}
export type Partial<T> = { [P in keyof T]?: T[P] };
export type Required<T> = { [P in keyof T]-?: T[P] };
export type Readonly<T> = { readonly [P in keyof T]: T[P] };
export type Pick<T, K extends keyof T> = { [P in K]: T[P] };
export type Record<K extends keyof any, T> = { [P in K]: T };
export type Exclude<T, U> = T extends U ? never : T;
export type Extract<T, U> = T extends U ? T : never;
export type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;
export type NonNullable<T> = T & {};
export class Date {}
export type Array<T> = T[];
`;
