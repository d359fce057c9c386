import CombineExCore

// Which Combine publishers are cold (see `ColdPublisher`).
//
// The rule: a publisher is cold when every subscription to it makes its own subscription to
// each publisher whose values it forwards, and those are cold. An operator struct subscribes to
// its upstream once per subscription, so it is cold exactly when its upstream is. Publishers
// that closures build per subscription (flatMap's transform, catch's handler) and the inner
// publishers of switchToLatest, which come from a cold upstream, are trusted to be fresh.
//
// Not cold, on purpose: AnyPublisher (it makes no promise), Future (runs once, eagerly, and
// shares its result), subjects, @Published, ObservableObjectPublisher, properties,
// MakeConnectable and Autoconnect (one upstream subscription shared by all), timers and
// NotificationCenter.Publisher (events come from a shared source).

// MARK: - Sources that replay fixed values: every subscriber gets its own, independent replay.

extension Just: ColdPublisher {}
extension Empty: ColdPublisher {}
extension Fail: ColdPublisher {}
extension Record: ColdPublisher {}
extension Publishers.Sequence: ColdPublisher {}
extension Result.Publisher: ColdPublisher {}
extension Optional.Publisher: ColdPublisher {}

// MARK: - Transforming, filtering and reducing: cold when the upstream is.
extension Publishers.Map: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryMap: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.MapKeyPath: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.MapKeyPath2: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.MapKeyPath3: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.CompactMap: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryCompactMap: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Filter: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryFilter: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.RemoveDuplicates: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryRemoveDuplicates: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Scan: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryScan: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Reduce: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryReduce: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Collect: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.CollectByCount: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.CollectByTime: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Count: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Comparison: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryComparison: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Contains: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.ContainsWhere: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryContainsWhere: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.AllSatisfy: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryAllSatisfy: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.First: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.FirstWhere: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryFirstWhere: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Last: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.LastWhere: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryLastWhere: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Output: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Drop: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.DropWhile: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryDropWhile: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.PrefixWhile: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryPrefixWhile: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.IgnoreOutput: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.ReplaceEmpty: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.ReplaceError: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.MapError: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.SetFailureType: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.AssertNoFailure: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Encode: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Decode: ColdPublisher where Upstream: ColdPublisher {}

// MARK: - Error handling: retry re-subscribes, so each attempt is a new run of a cold upstream.
extension Publishers.Catch: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.TryCatch: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Retry: ColdPublisher where Upstream: ColdPublisher {}

// MARK: - Flattening: the inner publishers are made per subscription.
extension Publishers.FlatMap: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.SwitchToLatest: ColdPublisher where Upstream: ColdPublisher {}

// MARK: - Schedulers and time: every subscription schedules its own work.
extension Publishers.ReceiveOn: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.SubscribeOn: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Delay: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Debounce: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Throttle: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Timeout: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.MeasureInterval: ColdPublisher where Upstream: ColdPublisher {}

// MARK: - Debugging.
extension Publishers.HandleEvents: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Print: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Breakpoint: ColdPublisher where Upstream: ColdPublisher {}

// MARK: - Combining: cold when every combined publisher is.

extension Publishers.Concatenate: ColdPublisher where Prefix: ColdPublisher, Suffix: ColdPublisher {
}
extension Publishers.MergeMany: ColdPublisher where Upstream: ColdPublisher {}
extension Publishers.Merge: ColdPublisher where A: ColdPublisher, B: ColdPublisher {}
extension Publishers.Merge3: ColdPublisher
where A: ColdPublisher, B: ColdPublisher, C: ColdPublisher {}
extension Publishers.Merge4: ColdPublisher
where A: ColdPublisher, B: ColdPublisher, C: ColdPublisher, D: ColdPublisher {}
extension Publishers.Merge5: ColdPublisher
where A: ColdPublisher, B: ColdPublisher, C: ColdPublisher, D: ColdPublisher, E: ColdPublisher {}
extension Publishers.Merge6: ColdPublisher
where
  A: ColdPublisher, B: ColdPublisher, C: ColdPublisher, D: ColdPublisher, E: ColdPublisher,
  F: ColdPublisher
{}
extension Publishers.Merge7: ColdPublisher
where
  A: ColdPublisher, B: ColdPublisher, C: ColdPublisher, D: ColdPublisher, E: ColdPublisher,
  F: ColdPublisher, G: ColdPublisher
{}
extension Publishers.Merge8: ColdPublisher
where
  A: ColdPublisher, B: ColdPublisher, C: ColdPublisher, D: ColdPublisher, E: ColdPublisher,
  F: ColdPublisher, G: ColdPublisher, H: ColdPublisher
{}

// Combining, buffering and flow-control operators are cold when all their upstreams are.
// `Publishers.Share` and `Publishers.Multicast` are deliberately not: they share one upstream
// subscription between subscribers.
extension Publishers.CombineLatest: ColdPublisher where A: ColdPublisher, B: ColdPublisher {}
extension Publishers.CombineLatest3: ColdPublisher
where A: ColdPublisher, B: ColdPublisher, C: ColdPublisher {}
extension Publishers.CombineLatest4: ColdPublisher
where A: ColdPublisher, B: ColdPublisher, C: ColdPublisher, D: ColdPublisher {}
extension Publishers.Zip: ColdPublisher where A: ColdPublisher, B: ColdPublisher {}
extension Publishers.Zip3: ColdPublisher
where A: ColdPublisher, B: ColdPublisher, C: ColdPublisher {}
extension Publishers.Zip4: ColdPublisher
where A: ColdPublisher, B: ColdPublisher, C: ColdPublisher, D: ColdPublisher {}
extension Publishers.DropUntilOutput: ColdPublisher
where Upstream: ColdPublisher, Other: ColdPublisher {}
extension Publishers.PrefixUntilOutput: ColdPublisher
where Upstream: ColdPublisher, Other: ColdPublisher {}
extension Publishers.Buffer: ColdPublisher where Upstream: ColdPublisher {}

// Cold futures are cold publishers: each subscription runs their work again.
extension DeferredFuture: ColdPublisher {}
extension AnyDeferredFuture: ColdPublisher {}
