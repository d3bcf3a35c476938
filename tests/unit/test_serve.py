"""The local server (site_src/builder/serve.py): a client that goes away mid-answer is no error."""

from __future__ import annotations

import socket
import struct
import threading
import time
from http.server import ThreadingHTTPServer

from site_src.builder import serve


class RecordingServer(ThreadingHTTPServer):
    """A server that keeps the errors it would print (socketserver's handle_error)."""

    errors: list

    def handle_error(self, request, client_address):
        self.errors.append(client_address)


def test_a_client_that_leaves_mid_download_is_not_an_error(tmp_path):
    (tmp_path / "big.bin").write_bytes(bytes(range(256)) * (64 * 1024))  # 16 MB: more than the socket buffers
    httpd = RecordingServer(("127.0.0.1", 0), serve.make_handler(tmp_path))
    httpd.errors = []
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        for _ in range(3):
            client = socket.create_connection(("127.0.0.1", httpd.server_port), timeout=5)
            client.sendall(b"GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert client.recv(1024).startswith(b"HTTP/1.0 200")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
            client.close()
        time.sleep(0.5)
        assert httpd.errors == []
    finally:
        httpd.shutdown()
        httpd.server_close()
