"""The Content-Security-Policy on every response, error pages included.

django-csp leaves the header off 404 and 500 responses when ``DEBUG`` is on
(so Django's debug pages keep their inline styles). That made the policy
depend on the mode: a server started with ``DJANGO_DEBUG=1`` by mistake, or a
test run in DEBUG, served its error pages unprotected, and what development
showed was not what production serves. The policy is the same everywhere
(see ``CONTENT_SECURITY_POLICY`` in the settings); in DEBUG, Django's own
debug pages therefore lose their inline styling, a price for one policy."""

from __future__ import annotations

from dataclasses import asdict

from csp.constants import HEADER
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class CSPEveryResponseMiddleware(CSPMiddleware):
    """django-csp's middleware, without its DEBUG exemption of 404 and 500."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response = super().process_response(request, response)
        if HEADER not in response and not getattr(response, "_csp_exempt", False):
            parts = self.get_policy_parts(request=request, response=response)
            policy = build_policy(**asdict(parts))
            if policy:
                response[HEADER] = policy
        return response
