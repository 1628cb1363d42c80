/**
 * Volcano's job plugins env, svc, ssh, mpi and the distributed-framework ones (tensorflow, pytorch,
 * hcclrank, ray), with the arguments Volcano's take, registered in
 * {@link io.lahar.core.job.plugins.JobPluginRegistry}, from which admission takes the names it
 * accepts. They edit pods before creation and return the objects they need as world actions, of
 * the kinds their {@link io.lahar.core.job.plugins.JobPluginType} declares.
 */
package io.lahar.core.job.plugins;
