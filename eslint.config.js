// Lint: typescript-eslint's recommended rules, and the one import rule of this project: code outside
// local/ reaches the local runtime only through local/index.ts (tools) or local/testing.ts (tests).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // Fixtures hold deliberately broken apps; .local/ and encore.gen/ are generated.
  // web/dist/ is the pages' built bundle; web/test-output/ the browser tests' screenshots.
  { ignores: ["node_modules/", ".local/", "encore.gen/", "local/__tests__/", "web/dist/", "web/test-output/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  // The pages run in the browser.
  { files: ["web/ui/**"], languageOptions: { globals: globals.browser } },
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
