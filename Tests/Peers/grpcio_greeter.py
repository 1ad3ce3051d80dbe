"""helloworld.Greeter on grpcio (gRPC's C core) over TLS, with a certificate chain made by trustme:
a peer the gRPC transport's TLS is tested against (Tests/APIGRPCTests/GRPCPeerTLSTests.swift).

    python3 grpcio_greeter.py [--mtls]

Prints one JSON line: the port, trustme's authority and the server's certificate (PEM), and
with --mtls a client certificate and key the server accepts (it then refuses clients without
one). Serves until its standard input closes. Needs `grpcio` and `trustme`
(Tests/Peers/requirements.txt); the messages are encoded by hand, so protobuf is not needed.
"""

import json
import sys
from concurrent import futures

import grpc
import trustme


def string_field(text):
    """A protobuf message whose field 1 is `text` (HelloRequest.name, HelloReply.message)."""
    data = text.encode()
    length = len(data)
    varint = bytearray()
    while True:
        byte = length & 0x7F
        length >>= 7
        varint.append(byte | (0x80 if length else 0))
        if not length:
            break
    return b"\x0a" + bytes(varint) + data


def read_string_field(message):
    """Field 1 of a message of one string field; empty when absent."""
    if not message or message[0] != 0x0A:
        return ""
    length, shift, index = 0, 0, 1
    while True:
        byte = message[index]
        length |= (byte & 0x7F) << shift
        index += 1
        shift += 7
        if not byte & 0x80:
            break
    return message[index:index + length].decode()


def say_hello(request, context):
    return string_field("Hello " + read_string_field(request))


def main():
    mutual = "--mtls" in sys.argv[1:]
    authority = trustme.CA()
    leaf = authority.issue_cert("localhost", "127.0.0.1")
    credentials = grpc.ssl_server_credentials(
        [(leaf.private_key_pem.bytes(), b"".join(pem.bytes() for pem in leaf.cert_chain_pems))],
        root_certificates=authority.cert_pem.bytes() if mutual else None,
        require_client_auth=mutual,
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("helloworld.Greeter", {
        "SayHello": grpc.unary_unary_rpc_method_handler(say_hello),
    })])
    port = server.add_secure_port("127.0.0.1:0", credentials)
    server.start()

    ready = {
        "port": port,
        "authority": authority.cert_pem.bytes().decode(),
        "leaf": leaf.cert_chain_pems[0].bytes().decode(),
    }
    if mutual:
        client = authority.issue_cert("client@example.com")
        ready["clientCertificate"] = client.cert_chain_pems[0].bytes().decode()
        ready["clientKey"] = client.private_key_pem.bytes().decode()
    print(json.dumps(ready), flush=True)
    sys.stdin.read()
    server.stop(grace=None)


if __name__ == "__main__":
    main()
