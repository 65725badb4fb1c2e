import { createKafkaBus } from '@fl0/stores'
import { poisonContract } from './poison.contract.ts'

/** The same poisons on a real Kafka broker (`npm run test:cluster`): one partition, three consumer groups. */
const KAFKA_BROKERS = process.env.KAFKA_BROKERS
if (!KAFKA_BROKERS) throw new Error('KAFKA_BROKERS is not set: run `npm run test:cluster`, which starts a broker')

poisonContract('kafka', async () => createKafkaBus({ brokers: KAFKA_BROKERS.split(',').map((b) => b.trim()), clientId: 'fl0-poison-test', partitions: 3 }))
