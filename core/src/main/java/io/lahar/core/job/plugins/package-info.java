/**
 * Volcano's job plugins env, svc, ssh and mpi, with the arguments Volcano's take. They edit pods
 * before creation and return the objects they need as world actions.
 */
package io.lahar.core.job.plugins;
