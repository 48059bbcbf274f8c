package dev.egress.border.egress;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * TLS towards webhook targets ({@code egress.tls.*}). Certificates and host names are always verified;
 * there is deliberately no switch that turns verification off.
 *
 * @param trustedCertificates path of a PEM file of CA certificates trusted in addition to the JDK's
 *                            default ones (say, a customer's private CA); empty for the defaults only
 */
@ConfigurationProperties("egress.tls")
public record TlsProperties(@DefaultValue("") String trustedCertificates) {}
