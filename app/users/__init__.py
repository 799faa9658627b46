"""User accounts: registration, password login (session cookie), API tokens (bearer) and the
FastAPI dependencies that resolve the current user for HTTP requests and websockets."""
