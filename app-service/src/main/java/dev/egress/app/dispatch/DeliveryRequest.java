package dev.egress.app.dispatch;

import java.util.Map;

/**
 * A validated {@code POST /v1/deliveries} body.
 *
 * @param tenantId the tenant
 * @param url      the absolute http(s) target URL
 * @param method   upper-case HTTP method
 * @param headers  headers for the target
 * @param payload  the payload, serialised as JSON text; null means no body (GET or DELETE without payload)
 */
record DeliveryRequest(String tenantId, String url, String method, Map<String, String> headers, String payload) {}
