{
	"id": "",
	"lang": "typescript",
	// Deployed gateways (Encore Cloud, `encore build docker`) allow credentialed cross-origin calls only
	// from these origins; `encore run` allows every origin. The app's own pages are served by the app
	// itself, same origin as the API; this lists the origin of the self-hosted setup in
	// docs/self-hosting/ (infra.config.json's metadata.base_url). See docs/self-hosting/CORS.md.
	"global_cors": {
		"allow_origins_with_credentials": ["http://localhost:8080"]
	},
	// The web pages' bundle (web/dist) must exist before Encore compiles the app; npm install builds it too.
	"build": { "hooks": { "prebuild": "npm run build:web" } }
}
