"""The official Python SDK's whole OAuth flow against the axum example as a resource server.

Usage: oauth_flow.py PATH_TO_mcp-tool-example-axum

1. Starts an authorization server made of the Python SDK's own components
   (`mcp.server.auth.routes.create_auth_routes` and an `OAuthAuthorizationServerProvider`,
   as the SDK's simple-auth example does): RFC 8414 metadata, dynamic client registration,
   the authorization endpoint with PKCE, the token endpoint. It issues RFC 9068 JWT access
   tokens signed RS256 with a key generated here, whose JWKS it serves at `jwks_uri`; it
   approves every authorization request for the user "alice" (no login page to click).
2. Starts the app with `--oauth-issuer` naming it.
3. Runs the SDK's client (`mcp.Client` over `streamable_http_client` with an
   `OAuthClientProvider`) with scope `notes:read`: 401 -> protected-resource metadata ->
   authorization-server metadata -> registration -> authorization code + PKCE -> token ->
   tool calls. Alice grants only `notes:read` the first time; `add_note` needs `notes:write`:
   the app answers 403 with a scope challenge, and the client steps up (a second
   authorization, granted in full) and calls again.

Prints one JSON report: every HTTP exchange the client made, what the authorization server
saw, and the tools' answers. Exits non-zero on the first broken promise.
"""

import asyncio
import json
import secrets
import socket
import subprocess
import sys
import time
import urllib.parse

import httpx2
import jwt
import uvicorn
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from pydantic import AnyHttpUrl, AnyUrl
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.routes import build_metadata, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

SCOPES = ["notes:read", "notes:write"]
KID = "as-key-1"


def check(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JwtIssuingProvider:
    """An in-memory authorization server that approves "alice" and issues signed JWTs."""

    def __init__(self, issuer, key):
        self.issuer = issuer
        self.key = key
        self.clients = {}
        self.codes = {}
        self.refresh_tokens = {}
        self.seen = {"registrations": 0, "authorizations": [], "tokens": []}

    async def get_client(self, client_id):
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull):
        self.seen["registrations"] += 1
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client, params: AuthorizationParams):
        code = secrets.token_urlsafe(24)
        scopes = params.scopes or []
        # Alice grants read access only at first, as a user may on a consent page: the
        # client learns it needs `notes:write` from the app's scope challenge, and asks again.
        if not self.seen["authorizations"]:
            scopes = [scope for scope in scopes if scope != "notes:write"]
        self.seen["authorizations"].append({"requested": params.scopes, "granted": scopes, "resource": params.resource})
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=scopes,
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject="alice",
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client, authorization_code):
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(self, client, authorization_code: AuthorizationCode):
        self.codes.pop(authorization_code.code, None)
        return self.issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client, refresh_token):
        return self.refresh_tokens.get(refresh_token)

    async def exchange_refresh_token(self, client, refresh_token: RefreshToken, scopes):
        return self.issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token):
        return None

    async def revoke_token(self, token):
        pass

    def issue(self, client_id, scopes, resource):
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "sub": "alice",
            "aud": resource,
            "client_id": client_id,
            "scope": " ".join(scopes),
            "iat": now,
            "exp": now + 600,
            "jti": secrets.token_hex(8),
        }
        access = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": KID, "typ": "at+jwt"})
        refresh = secrets.token_urlsafe(24)
        self.refresh_tokens[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource, subject="alice"
        )
        self.seen["tokens"].append({"scope": claims["scope"], "aud": resource})
        return OAuthToken(
            access_token=access, token_type="Bearer", expires_in=600, scope=claims["scope"], refresh_token=refresh
        )


def authorization_server(issuer, provider, key):
    """The SDK's auth routes, the metadata with `jwks_uri` added, and the JWKS."""
    registration = ClientRegistrationOptions(enabled=True, valid_scopes=SCOPES, default_scopes=["notes:read"])
    revocation = RevocationOptions(enabled=False)
    routes = create_auth_routes(
        provider, AnyHttpUrl(issuer), client_registration_options=registration, revocation_options=revocation
    )
    # The SDK's metadata, with the RFC 8414 `jwks_uri` its model leaves out (its own
    # resource servers introspect instead).
    metadata = build_metadata(AnyHttpUrl(issuer), None, registration, revocation)
    document = metadata.model_dump(mode="json", exclude_none=True)
    document["jwks_uri"] = issuer.rstrip("/") + "/jwks"

    async def metadata_handler(_request):
        return JSONResponse(document)

    routes = [r for r in routes if r.path != "/.well-known/oauth-authorization-server"]
    routes.append(Route("/.well-known/oauth-authorization-server", metadata_handler))
    jwk = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": KID, "alg": "RS256", "use": "sig"})

    async def jwks(_request):
        return JSONResponse({"keys": [jwk]})

    routes.append(Route("/jwks", jwks))
    return Starlette(routes=routes)


class MemoryStorage:
    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


async def start_app(binary, addr, issuer):
    app = subprocess.Popen(
        [binary, "--http", addr, "--oauth-issuer", issuer],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    host, port = addr.split(":")
    deadline = time.time() + 20
    while True:
        if app.poll() is not None:
            check(False, f"the app exited: {app.stderr.read().decode()}")
        try:
            _, writer = await asyncio.open_connection(host, int(port))
            writer.close()
            return app
        except OSError as error:
            if time.time() > deadline:
                app.kill()
                check(False, f"the app did not listen: {error}: {app.stderr.read().decode()}")
            await asyncio.sleep(0.05)


async def run(binary):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    as_port = free_port()
    issuer = str(AnyHttpUrl(f"http://127.0.0.1:{as_port}"))
    provider = JwtIssuingProvider(issuer, key)
    config = uvicorn.Config(authorization_server(issuer, provider, key), host="127.0.0.1", port=as_port, log_level="warning")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)

    addr = f"127.0.0.1:{free_port()}"
    app = await start_app(binary, addr, issuer)
    url = f"http://{addr}/mcp"
    report = {"issuer": issuer, "url": url, "exchanges": []}

    redirect = {}

    async def redirect_handler(authorization_url):
        # The user agent's part: the authorization server approves at once and redirects to
        # the client's callback with the code.
        parsed = urllib.parse.urlparse(authorization_url)
        query = urllib.parse.parse_qs(parsed.query)
        report.setdefault("authorization_requests", []).append(
            {name: query.get(name, [None])[0] for name in ("code_challenge_method", "resource", "scope")}
        )
        async with httpx2.AsyncClient() as browser:
            answer = await browser.get(authorization_url, follow_redirects=False)
        check(answer.status_code == 302, f"authorize answered {answer.status_code}: {answer.text}")
        location = urllib.parse.parse_qs(urllib.parse.urlparse(answer.headers["location"]).query)
        redirect["code"] = location["code"][0]
        redirect["state"] = location.get("state", [None])[0]

    async def callback_handler():
        return AuthorizationCodeResult(code=redirect["code"], state=redirect["state"])

    auth = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="oauth-flow-test",
            redirect_uris=[AnyUrl("http://127.0.0.1:1/callback")],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            scope="notes:read",
        ),
        storage=MemoryStorage(),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )

    async def record(response):
        request = response.request
        report["exchanges"].append(
            {
                "method": request.method,
                "url": str(request.url),
                "status": response.status_code,
                "www_authenticate": response.headers.get("www-authenticate"),
            }
        )

    try:
        async with httpx2.AsyncClient(auth=auth, event_hooks={"response": [record]}, timeout=30) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                report["protocol"] = client.protocol_version
                tools = sorted(tool.name for tool in (await client.list_tools()).tools)
                report["tools"] = tools
                whoami = await client.call_tool("whoami", {})
                report["whoami"] = whoami.content[0].text
                saved = await client.call_tool("add_note", {"text": "buy milk"})
                check(not saved.is_error, f"add_note failed: {saved}")
                report["add_note"] = saved.content[0].text
                listed = await client.call_tool("list_notes", {})
                report["list_notes"] = listed.content[0].text
    finally:
        app.terminate()
        app.wait(timeout=10)
        server.should_exit = True
        await serving
    report["authorization_server"] = provider.seen
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1]))
