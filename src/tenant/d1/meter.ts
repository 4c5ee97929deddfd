/** D1 round trips, counted by the tenant executor (src/tenant/placement/executor.ts) and the directory's queries. */

/** One request's (or command's) count of D1 round trips: each D1 batch or statement execution adds one. */
export interface RoundTripMeter {
  roundTrips: number;
}
