package dev.egress.app.proxy;

import dev.egress.app.routing.Resolution;
import dev.egress.discovery.web.forward.TunnelCall;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemException;
import dev.egress.discovery.web.problem.ProblemType;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import java.net.InetAddress;
import java.util.Locale;

/**
 * The checks every proxy request passes before a tunnel is asked for, CONNECT and absolute-form alike, in this
 * order: the port allowlist (403), the credentials and the tenant ({@link ProxyAuthenticator}: 407, 403), the
 * tenant's resolution (404, 503). Each refusal is a problem the frontend answers with before closing.
 */
final class ProxyDoor {

    /**
     * A request that may open a tunnel: for this tenant, through these candidates.
     *
     * @param tenant     the tenant (or the shared pool)
     * @param resolution its candidates
     * @param target     where the tunnel goes
     * @param quota      the key its tunnels and buffers count under: the tenant, or for the shared pool and the
     *                   credential-less door the tenant and the sender's address, so those senders do not share one
     *                   quota with everybody
     */
    record Admitted(String tenant, Resolution resolution, TunnelCall target, String quota) {}

    private ProxyDoor() {}

    /**
     * Checks one request.
     *
     * @param context what every connection shares
     * @param request the request
     * @param peer    the sender's address
     * @return the tenant, its resolution and the target
     * @throws ProxyAuthenticator.Refused with the answer to give
     */
    static Admitted admit(ProxyContext context, ProxyRequest request, InetAddress peer)
            throws ProxyAuthenticator.Refused {
        OriginRequest origin = request.origin();
        TunnelCall target;
        try {
            target = origin != null
                    ? origin.target()
                    : TunnelCall.parse(request.head().uri());
        } catch (IllegalArgumentException e) {
            throw new ProxyAuthenticator.Refused(ProxyAnswers.malformed("CONNECT " + e.getMessage()));
        }
        if (!context.properties().allows(target.port())) {
            throw new ProxyAuthenticator.Refused(Problem.of(
                            ProblemType.TARGET_DENIED,
                            "port %d is not allowed (443, 80 and egress.proxy.allowed-ports)".formatted(target.port()))
                    .withReason(ProxyAnswers.PORT_NOT_ALLOWED));
        }
        ProxyAuthenticator.Sender sender = context.authenticator()
                .authenticate(request.head().headers().get(HttpHeaderNames.PROXY_AUTHORIZATION), target, peer);
        try {
            // No tenant claims the destination: it goes through the shared pool, as a tenant of its own.
            Resolution resolution = sender.tenantId() == null
                    ? context.dispatcher().resolveSharedPool()
                    : context.dispatcher().resolve(sender.tenantId());
            String tenant = resolution.tenant().id();
            boolean shared = sender.tenantId() == null || sender.credentialless();
            return new Admitted(
                    tenant, resolution, target, shared ? tenant + " from " + peer.getHostAddress() : tenant);
        } catch (ProblemException e) {
            throw new ProxyAuthenticator.Refused(e.problem());
        }
    }

    /**
     * Reads a request that is not a CONNECT: absolute-form {@code http://} is served through a tunnel, anything
     * else is refused ({@code https://} absolute-form included: that is what CONNECT is for).
     *
     * @param request the request head
     * @return the absolute-form request
     * @throws ProxyAuthenticator.Refused with the 400 to give
     */
    static OriginRequest absolute(HttpRequest request) throws ProxyAuthenticator.Refused {
        String uri = request.uri().toLowerCase(Locale.ROOT);
        if (!uri.startsWith("http://")) {
            throw new ProxyAuthenticator.Refused(ProxyAnswers.malformed(
                    uri.startsWith("https://")
                            ? "https:// through the proxy: use CONNECT (curl -p, or an https:// target URL)"
                            : "not a proxy request (expected: CONNECT host:port or http://host[:port]/path)"));
        }
        try {
            return OriginRequest.of(request);
        } catch (IllegalArgumentException e) {
            throw new ProxyAuthenticator.Refused(ProxyAnswers.malformed("absolute-form " + e.getMessage()));
        }
    }
}
