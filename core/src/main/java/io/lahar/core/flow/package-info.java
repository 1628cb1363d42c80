/**
 * The JobFlow engine: Volcano's jobflow controller as a pure state machine
 * ({@link io.lahar.core.flow.JobFlowController}), with Lahar's per-flow {@code retry} and
 * {@code when}, and {@link io.lahar.core.flow.FlowSimulation} behind {@code lahar simulate} for flows.
 */
package io.lahar.core.flow;
