"""Three real calls through the client openapi-python-client generated from
docs/openapi.json (scripts/generated-client/test.mjs runs it against a demo server):
the catalogue searched, a farmer signed in, and their account read with the token;
then a refusal read as the document's error envelope. The client parses every answer
into the document's models, so a field the server sends that the document does not
describe as it is fails here. Usage: python calls.py http://127.0.0.1:PORT"""

import sys

from mavuno_client import AuthenticatedClient, Client
from mavuno_client.api.accounts import login, me
from mavuno_client.api.products import product_catalogue
from mavuno_client.models import CataloguePage, Credentials, ErrorBody, LoginRequest, LoginResponse, MeResponse

base = sys.argv[1] + "/api/v1"
visitor = Client(base_url=base, raise_on_unexpected_status=True)

page = product_catalogue.sync(client=visitor, q="beans")
assert isinstance(page, CataloguePage), page
titles = [product.title for product in page.data]
assert page.total == len(titles) >= 1 and any("Bean" in t or "bean" in t for t in titles), titles
print(f"catalogue: {page.total} listings for 'beans': {titles}")

signed = login.sync_detailed(
    client=visitor,
    body=LoginRequest(user=Credentials.from_dict({"email": "farmer@mavuno.demo", "password": "mavuno-demo"})),
)
assert signed.status_code == 200 and isinstance(signed.parsed, LoginResponse), signed
print(f"signed in as {signed.parsed.user.email} ({signed.parsed.user.role})")

farmer = AuthenticatedClient(base_url=base, token=signed.parsed.user.token, raise_on_unexpected_status=True)
mine = me.sync(client=farmer)
assert isinstance(mine, MeResponse) and mine.user.email == "farmer@mavuno.demo", mine
print(f"/me: {mine.user.first_name} {mine.user.last_name}")

refused = login.sync_detailed(
    client=visitor,
    body=LoginRequest(user=Credentials.from_dict({"email": "farmer@mavuno.demo", "password": "not-it"})),
)
assert refused.status_code == 401 and isinstance(refused.parsed, ErrorBody), refused
assert refused.parsed.code == "invalid_credentials", refused.parsed
print(f"a wrong password: {refused.status_code} {refused.parsed.code}")
