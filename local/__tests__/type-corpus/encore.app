{"id":"","lang":"typescript"}
