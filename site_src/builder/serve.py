"""A local server for a built site, as a static host would serve it: MIME types, 404.html, .br/.gz."""

from __future__ import annotations

import os
from pathlib import Path

from site_src.builder.compress import COMPRESSORS
from site_src.builder.settings import in_project

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".toml": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".mpy": "application/octet-stream",
    ".pack": "application/octet-stream",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".zip": "application/zip",
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}


ENCODING_NAMES = {".br": "br", ".gz": "gzip"}


def make_handler(directory: str | os.PathLike, log: bool = False, compress: bool = True):
    """A request handler serving ``directory`` like a static host: right MIME types, 404.html,
    and (``compress``) the build's .br or .gz twin to a client that accepts that encoding."""
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(directory), **kwargs)

        def handle(self):
            """Answer the connection's requests; a client that goes away mid-answer (a tab closed
            while a file was on its way) is no error, so nothing is printed for it."""
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):
                pass

        def send_head(self):
            """Send file.br or file.gz (the build's twins) with its Content-Encoding when the client takes it."""
            path = self.translate_path(self.path)
            if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
                path = os.path.join(path, "index.html")
            accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
            suffix = next((suffix for suffix in COMPRESSORS
                           if ENCODING_NAMES[suffix] in accepted and os.path.isfile(path + suffix)), None)
            if not (compress and suffix and os.path.isfile(path)):
                return super().send_head()
            twin, encoding = path + suffix, ENCODING_NAMES[suffix]
            modified = int(os.stat(path).st_mtime)
            since = self.headers.get("If-Modified-Since")
            if since and "If-None-Match" not in self.headers:
                try:
                    from email.utils import parsedate_to_datetime

                    if int(parsedate_to_datetime(since).timestamp()) >= modified:
                        self.send_response(304)
                        self.send_header("Vary", "Accept-Encoding")
                        self.end_headers()
                        return None
                except (TypeError, ValueError, IndexError, OverflowError):
                    pass
            stream = open(twin, "rb")
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(os.fstat(stream.fileno()).st_size))
            self.send_header("Last-Modified", self.date_time_string(modified))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return stream

        def send_error(self, code, message=None, explain=None):
            page = Path(self.directory) / "404.html"
            if code == 404 and page.is_file():
                body = page.read_bytes()
                self.send_response(404, message)
                self.send_header("Content-Type", MIME_TYPES[".html"])
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return
            super().send_error(code, message, explain)

        def log_message(self, format, *args):
            if log:
                super().log_message(format, *args)

    return Handler


def serve(out_dir: str | os.PathLike = "dist", port: int = 8000, host: str = "127.0.0.1") -> None:
    """Serve a built site on http://host:port until interrupted."""
    import http.server

    out = in_project(out_dir)
    server = http.server.ThreadingHTTPServer((host, port), make_handler(out, log=True))
    print(f"Serving {out} on http://{host}:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
