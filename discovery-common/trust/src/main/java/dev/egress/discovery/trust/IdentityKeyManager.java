package dev.egress.discovery.trust;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents the current {@link Identity} in every TLS handshake, client or server side. Reading the
 * identity per handshake is what makes certificate rotation work without a restart: pooled
 * connections keep their session, new connections use the new certificate. The alias names the
 * identity instance, so a handshake that straddles a reload still gets a chain and a key that belong
 * together.
 */
public final class IdentityKeyManager extends X509ExtendedKeyManager {

    private final Supplier<Identity> identity;
    private Identity last; // guarded by this: the identity the latest alias named
    private Identity previous; // guarded by this: the one before it (a handshake may still hold its alias)

    /**
     * Creates the key manager.
     *
     * @param identity the current identity (typically a {@link ReloadingFile})
     */
    public IdentityKeyManager(Supplier<Identity> identity) {
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    private static String aliasOf(Identity identity) {
        return "egress-" + Integer.toHexString(System.identityHashCode(identity));
    }

    private synchronized String alias() {
        Identity current = identity.get();
        if (current != last) {
            previous = last;
            last = current;
        }
        return aliasOf(current);
    }

    private synchronized Identity byAlias(String alias) {
        Identity current = identity.get();
        if (alias == null || alias.equals(aliasOf(current))) {
            return current;
        }
        for (Identity known : new Identity[] {last, previous}) {
            if (known != null && alias.equals(aliasOf(known))) {
                return known;
            }
        }
        return current;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return new String[] {alias()};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return alias();
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return alias();
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return new String[] {alias()};
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return alias();
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return alias();
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return byAlias(alias).chainArray();
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return byAlias(alias).key();
    }
}
