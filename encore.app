{
	"id": "",
	"lang": "typescript"
}
