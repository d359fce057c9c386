import BenchmarkKit

#if !BENCH_OPENCOMBINE
  import CombineEx
  import CombineExStore
#endif

/// The store's effect paths (issue 19): CombineEx only, like j2 and j3, each reported as a
/// multiple of the raw loop `a`.
func storeWorkloads() -> [Workload] {
  #if BENCH_OPENCOMBINE
    return []
  #else
    return [
      Workload(
        "j7", "Effect.cancellable(id:) start, cancel (EffectMiddleware)", unit: "start+cancel",
        targets: [.multipleOf("a"), .withinFactorOf("k7", 5)], body: cancellableEffectCycle),
      Workload(
        "j8", "RetainedPublisherAction: value reduced, cleanup", unit: "round trip",
        targets: [.multipleOf("a")], body: retainedPublisherRoundTrip),
    ]
  #endif
}

#if !BENCH_OPENCOMBINE
  /// The actions j7 dispatches: start a long-running effect, then cancel it by id.
  enum Job: StoreAction {
    case start
    case stop
  }

  /// The cancellation id of j7's effect.
  enum JobID {}

  /// j7: an effect middleware starts an effect that never ends, cancellable by id, and the next
  /// action cancels it (`Effect.cancel(id:)`); the reducer counts the starts.
  func cancellableEffectCycle(_ bench: Bench) {
    let count = bench.size(100_000)
    let id = ObjectIdentifier(JobID.self)
    let jobs = EffectMiddleware<Job, Job, Int, Void>.onAction { action, _, _ in
      switch action {
      case .start: Empty<Job, Never>(completeImmediately: false).asEffect().cancellable(id: id)
      case .stop: .cancel(id: id)
      }
    }
    let store = Store(
      reducer: { (starts: inout Int, action: any StoreAction) in
        if case .start? = action as? Job { starts &+= 1 }
      },
      state: 0, middlewares: [jobs.asMiddleware()])
    bench.measure(units: count) {
      for _ in 0..<count {
        store.dispatch(Job.start)
        store.dispatch(Job.stop)
      }
    }
    precondition(jobs.runningEffectCount == 0, "j7: an effect is still in flight")
    bench.consume(store.state)
  }

  /// The action j8's publisher dispatches.
  struct Loaded: StoreAction {
    let value: Int
  }

  /// j8: a `RetainedPublisherAction` subscribes to a response (retained by the publisher
  /// middleware), the response arrives, is dispatched and reduced, and the pipeline's cleanup
  /// releases it.
  func retainedPublisherRoundTrip(_ bench: Bench) {
    let count = bench.size(100_000)
    let publishers = PublisherMiddleware<Int>()
    let store = Store(
      reducer: { (total: inout Int, action: any StoreAction) in
        if let loaded = action as? Loaded { total &+= loaded.value }
      },
      state: 0, middlewares: [publishers.middleware])
    let responses = PassthroughSubject<Int, Never>()
    bench.measure(units: count) {
      for index in 0..<count {
        store.dispatch(
          RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
            responses.first().handleCleanup(cleanup).sink { dispatch(Loaded(value: $0)) }
              .store(in: &cancellables)
          })
        responses.send(index)
      }
    }
    precondition(publishers.retainedDispatchCount == 0, "j8: a dispatch is still retained")
    bench.consume(store.state)
  }
#endif
