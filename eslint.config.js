// Lint: typescript-eslint's recommended rules, and the one import rule of this project: code outside
// local/ reaches the local runtime only through its doors, the `exports` of local/package.json.
import fs from "node:fs";
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/** The doors of local/ as import paths below it ("index", "testing", "hooks/vite-plugin", "cli"). */
const localDoors = Object.values(JSON.parse(fs.readFileSync(new URL("./local/package.json", import.meta.url), "utf8")).exports).map(
  (file) => file.replace(/^\.\//, "").replace(/\.[cm]?[jt]s$/, ""),
);
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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
    ignores: ["local/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `(^|/)local/(?!(${localDoors.map(escapeRegex).join("|")})$)`,
              message: `outside local/, import the local runtime only through the exports of local/package.json: ${localDoors.join(", ")}`,
            },
          ],
        },
      ],
    },
  },
);
