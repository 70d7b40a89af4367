import { describeRedisTopology } from './support/topology-suite';

// A private 6-node Redis Cluster (3 masters, 3 replicas) on loopback, started for this file only.
describeRedisTopology('cluster');
