package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jboss.logging.Logger;

/**
 * The bridge's informers, started so that an API that fails while they list does not end them.
 * fabric8's informer stops for good when its first list fails (it retries only once started), and
 * the bridge's start with it: one connection the API closed under load made the bridge exit at
 * start. These retry the list with fabric8's backoff until it succeeds, as they do once started;
 * only what fabric8 itself gives up on once started (a {@link WatcherException}) still ends them.
 */
public final class Informers {

    private static final Logger LOG = Logger.getLogger(Informers.class);

    private Informers() {}

    /**
     * Starts an informer of {@code resources} with {@code handler} ({@code null}: a cache only) and
     * returns once its first list is in its cache, however many attempts that took.
     */
    public static <T> SharedIndexInformer<T> inform(
            Informable<T> resources, ResourceEventHandler<? super T> handler, long resyncMillis) {
        SharedIndexInformer<T> informer = resources.runnableInformer(resyncMillis);
        informer.exceptionHandler(Informers::retryAfter);
        if (handler != null) {
            informer.addEventHandler(handler);
        }
        return informer.run();
    }

    /** Whether the informer lists again after {@code failure}: anything but what ends a started one. */
    static boolean retryAfter(boolean started, Throwable failure) {
        if (failure instanceof WatcherException) {
            return false;
        }
        if (!started) {
            LOG.warnf("the Kubernetes API failed an informer's first list (%s); listing again", failure.toString());
        }
        return true;
    }
}
