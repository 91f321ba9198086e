// The Gatehouse settings Vite writes into the bundle (see vite.config.ts).
declare const __GATEHOUSE__: {
  gatehouseUrl: string;
  projectId: string;
  publishableClientKey?: string;
};
