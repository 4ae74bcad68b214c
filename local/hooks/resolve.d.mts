export declare const appRoot: string;
export declare const napiPath: string;
export declare const genDir: string;
export declare function localResolve(specifier: string, importer: string | undefined): string | null;
