/** The JobFlow phases, one class each, as Volcano's pkg/controllers/jobflow/state. */
package io.lahar.core.flow.state;
