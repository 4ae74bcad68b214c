{
  "id": "",
  "lang": "typescript",
  "global_cors": {
    "allow_headers": ["X-Extra"],
    "expose_headers": ["X-Raw"],
    "allow_origins_with_credentials": ["https://app.example", "https://*.preview.example"]
  }
}
