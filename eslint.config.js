// Lint: typescript-eslint's recommended rules, and the one import rule of this project: code outside
// local/ reaches the local runtime only through local/index.ts (tools) or local/testing.ts (tests).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // Fixtures hold deliberately broken apps; .local/ and encore.gen/ are generated.
  { ignores: ["node_modules/", ".local/", "encore.gen/", "local/__tests__/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  { rules: { "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }] } },
  {
    files: ["**/*.ts"],
    // vite.config.ts is the wiring that puts the runtime under vitest.
    ignores: ["local/**", "vite.config.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)local/(?!(index|testing)$)",
              message: "outside local/, import the local runtime only from local/index.ts or local/testing.ts",
            },
          ],
        },
      ],
    },
  },
);
