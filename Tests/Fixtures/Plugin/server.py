"""The loopback server plugin-smoke calls: prints its port, then answers until killed."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLIES = {
    "/users/7": {"id": 7, "name": "Ada", "balance": 1250},
    "/invoices/count?state=open": 3,
    "/notes/5": {"id": 5, "title": "Plugins", "body": "built at build time", "state": "published", "created_at": "2026-01-01T00:00:00Z"},
    "/status": {"healthy": True, "version": "1.0"},
}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path in REPLIES:
            self.reply(200, REPLIES[self.path])
        else:
            self.reply(404, {"error": "no " + self.path})

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/jsonrpc" and request.get("method") == "subtract":
            minuend, subtrahend = request["params"]
            self.reply(200, {"jsonrpc": "2.0", "result": minuend - subtrahend, "id": request["id"]})
        else:
            self.reply(404, {"error": "no " + self.path})

    def reply(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
sys.stdout.close()
server.serve_forever()
