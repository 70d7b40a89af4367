import { describeRedisTopology } from './support/topology-suite';

// A private Sentinel group (master, replica, 3 sentinels) on loopback, started for this file only.
describeRedisTopology('sentinel');
