/**
 * Signed webhooks (Standard Webhooks): {@link dev.egress.app.signing.WebhookSigner} adds {@code webhook-id},
 * {@code webhook-timestamp} and {@code webhook-signature} to a signing tenant's webhooks, with the tenant's
 * secrets from the signing secrets file ({@code egress.signing.secrets-file}). Both delivery paths call it.
 */
@NullMarked
package dev.egress.app.signing;

import org.jspecify.annotations.NullMarked;
