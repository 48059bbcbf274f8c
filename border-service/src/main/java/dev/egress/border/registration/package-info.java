/**
 * The Border's publish side: {@link dev.egress.border.registration.BorderRegistrar} owns the local
 * announcement and keeps the registry slot in step with it;
 * {@link dev.egress.border.registration.RegistrationHealthIndicator} makes readiness follow the
 * registration.
 */
@NullMarked
package dev.egress.border.registration;

import org.jspecify.annotations.NullMarked;
