{"id": "", "lang": "typescript"}
