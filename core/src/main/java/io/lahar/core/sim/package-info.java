/**
 * The instant world behind {@code lahar simulate}: a kubelet and scheduler that do at once what
 * the engine asks (or, in manual mode, only what the script says), and the script format.
 */
package io.lahar.core.sim;
