package dev.egress.discovery.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.Test;

/** Both outcomes of each setting, whether or not this machine loads netty-tcnative (the services test that). */
class TlsProviderTest {

    @Test
    void autoTakesOpenSslWhereItLoads() {
        TlsProvider.Choice choice = TlsProvider.AUTO.choose(true, "BoringSSL", null);

        assertThat(choice.provider()).isEqualTo(SslProvider.OPENSSL);
        assertThat(choice.describe())
                .isEqualTo("TLS provider: OPENSSL (BoringSSL via netty-tcnative, egress.tls.provider=auto)");
    }

    @Test
    void autoFallsBackToTheJdkSayingWhy() {
        TlsProvider.Choice choice = TlsProvider.AUTO.choose(false, null, "UnsatisfiedLinkError: no glibc");

        assertThat(choice.provider()).isEqualTo(SslProvider.JDK);
        assertThat(choice.describe())
                .isEqualTo("TLS provider: JDK (egress.tls.provider=auto, but OpenSSL (netty-tcnative) does not load: "
                        + "UnsatisfiedLinkError: no glibc)");
    }

    @Test
    void jdkIsTheJdkEvenWhereOpenSslLoads() {
        TlsProvider.Choice choice = TlsProvider.JDK.choose(true, "BoringSSL", null);

        assertThat(choice.provider()).isEqualTo(SslProvider.JDK);
        assertThat(choice.describe()).isEqualTo("TLS provider: JDK (egress.tls.provider=jdk)");
    }

    @Test
    void opensslIsOpenSslOrRefusesToStart() {
        assertThat(TlsProvider.OPENSSL.choose(true, "BoringSSL", null).provider())
                .isEqualTo(SslProvider.OPENSSL);
        assertThatThrownBy(() -> TlsProvider.OPENSSL.choose(false, null, "UnsatisfiedLinkError: no glibc"))
                .isInstanceOf(TrustMaterialException.class)
                .hasMessageContaining("egress.tls.provider=openssl")
                .hasMessageContaining("UnsatisfiedLinkError: no glibc")
                .hasMessageContaining("expected:");
    }

    @Test
    void aChoiceNeedsAProviderAndAReason() {
        assertThatThrownBy(() -> new TlsProvider.Choice(SslProvider.JDK, " "))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
