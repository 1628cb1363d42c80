/**
 * One class per job phase (Volcano's pkg/controllers/job/state). Each accepts the actions legal
 * in its phase and declares the phases it may lead to; the engine refuses any other move.
 */
package io.lahar.core.job.state;
