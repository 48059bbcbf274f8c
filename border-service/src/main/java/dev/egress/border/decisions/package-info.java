/**
 * Operator decisions that survive a restart: {@link dev.egress.border.decisions.DecisionKeeper} stores an
 * operator's status change in the registry before it is announced, and at startup restores what was stored
 * before the first announcement, failing closed (every IP {@code DISABLED}) when the record cannot be read.
 * The record's format is {@link dev.egress.border.decisions.OperatorDecisionsCodec}; the startup rule is
 * {@link dev.egress.border.decisions.StartupDecisions}.
 */
@NullMarked
package dev.egress.border.decisions;

import org.jspecify.annotations.NullMarked;
