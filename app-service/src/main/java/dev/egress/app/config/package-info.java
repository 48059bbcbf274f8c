/**
 * App-wide concerns: bearer authentication of App's doors ({@link dev.egress.app.config.ApiTokenFilter},
 * {@link dev.egress.app.config.SecurityProperties}), the tenant check of tenant-bound tokens
 * ({@link dev.egress.app.config.TenantAccess}), and the OpenAPI document's frame.
 */
package dev.egress.app.config;
