/**
 * What the JobFlow and CronJob engines share: both are one node keyed by their owner that makes
 * jobs, hears of them back through repartitions, and answers on the same topics.
 */
package io.lahar.streams.engine;
