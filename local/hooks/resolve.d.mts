export declare const napiPath: string;
export declare function localResolve(specifier: string, importer: string | undefined): string | null;
