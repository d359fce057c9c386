import CombineEx

extension Effect {
  /// Waits `dueTime` before running the effect, and cancels the previous debounced run with the
  /// same `id`: of effects started in quick succession, only the last one runs.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// var results: [String] = []
  /// var cancellables = Set<AnyCancellable>()
  /// for query in ["s", "sw", "swift"] {
  ///   Effect<String, Never>(value: query)
  ///     .debounce(id: "search", for: .milliseconds(300), scheduler: scheduler)
  ///     .sink { results.append($0) }
  ///     .store(in: &cancellables)
  /// }
  /// scheduler.advance(by: .milliseconds(300))
  /// print(results)  // Prints: ["swift"]
  /// ```
  ///
  /// Each run waits on `scheduler` and is cancellable by `id` with
  /// ``cancel(id:)``; a new run cancels the old one even if it has already started its work
  /// (like TCA). Cancelled runs finish; one cancelled while it waits never starts the effect.
  /// The id lives in the table of the store that runs the effect: a debounced effect in one
  /// store never replaces another store's.
  public func debounce<ID: Hashable, S: Scheduler>(
    id: ID, for dueTime: S.SchedulerTimeType.Stride, scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Effect {
    let work = self
    return Effect(
      work: { registry in
        Just(())
          .setFailureType(to: Failure.self)
          .delay(for: dueTime, scheduler: scheduler, options: options)
          .flatMap { work.publisher(in: registry) }
          .eraseToAnyPublisher()
      }, token: nil, boundRegistry: derivedBinding
    )
    .cancellable(id: id, cancelInFlight: true)
    .withToken(token)
  }

  /// Publishes at most one value per `interval` for `id`, across runs of effects throttled with
  /// that id in the same store (the id lives in the store's table): a value that arrives inside
  /// the window waits for its end, then is published (the newest value if `latest` is `true`,
  /// otherwise the first one of the window).
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// var results: [Int] = []
  /// var cancellables = Set<AnyCancellable>()
  /// for value in 1...3 {
  ///   Effect<Int, Never>(value: value)
  ///     .throttle(id: "volume", for: .seconds(1), scheduler: scheduler, latest: true)
  ///     .sink { results.append($0) }
  ///     .store(in: &cancellables)
  /// }
  /// print(results)  // Prints: [1]
  /// scheduler.advance(by: .seconds(1))
  /// print(results)  // Prints: [1, 3]
  /// ```
  ///
  /// A run whose value must wait replaces the previous waiting run with the same `id` (which
  /// finishes without publishing); `latest: false` carries the first waiting value over to it.
  /// A waiting run may also end otherwise (its subscriber cancels, or a new run with the same
  /// `id` starts and has no value yet): its value is not published at the end of the window,
  /// though with `latest: false` a value arriving later in that window still carries it over;
  /// once the window has passed, it is dropped.
  ///
  /// ``cancel(id:)`` cancels the runs in flight and drops the value waiting: it is never
  /// published, by them or by a later run. Like TCA, it does not reopen the window: the value
  /// published last still holds the next one back until its window ends (then the next one
  /// publishes itself), so `id` never publishes twice within `interval`.
  ///
  /// Times are read from `scheduler`, which may be any scheduler (a test scheduler in tests).
  /// The state kept for `id` is dropped at the end of a window in which no value waits (a
  /// no-op task is scheduled on `scheduler` for that moment), so ids used once, or cancelled,
  /// cost nothing afterwards.
  public func throttle<ID: Hashable, S: Scheduler>(
    id: ID, for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  ) -> Effect {
    let key = CancellationKey(id)
    let work = self.work
    return Effect(
      work: { registry in
        throttled(
          work(registry), key: key, interval: interval, scheduler: scheduler, latest: latest,
          registry: registry)
      }, token: nil, boundRegistry: derivedBinding
    )
    .cancellable(id: id, cancelInFlight: true).withToken(token)
  }
}

/// The values of `upstream`, throttled under `key` in `registry` (see
/// ``Effect/throttle(id:for:scheduler:latest:)``).
private func throttled<Output, Failure: Error, S: Scheduler>(
  _ upstream: AnyPublisher<Output, Failure>, key: CancellationKey,
  interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool,
  registry: CancellationRegistry
) -> AnyPublisher<Output, Failure> {
  upstream.flatMap { value -> AnyPublisher<Output, Failure> in
    let now = scheduler.now
    let decision = registry.withThrottleState(for: key) {
      state -> (value: Output, wait: S.SchedulerTimeType.Stride?, generation: Int) in
      guard let last = state.lastPublished as? S.SchedulerTimeType else {
        state.lastPublished = now
        state.pending = .none
        return (value, nil, state.generation)
      }
      if last.distance(to: now) >= interval {
        // The window has passed. A value still waiting is due now (the scheduler has not run
        // its publication yet): it takes the place of this one unless `latest`, and its run,
        // finding nothing waiting, publishes nothing, so the window gets one value. An
        // orphaned value was left by a cancelled run of the passed window: it is dropped.
        var chosen = value
        if !latest, case .waiting(let waiting) = state.pending, let waiting = waiting as? Output {
          chosen = waiting
        }
        state.lastPublished = now
        state.pending = .none
        return (chosen, nil, state.generation)
      }
      let chosen = latest ? value : (state.pendingValue as? Output ?? value)
      state.pending = .waiting(chosen)
      state.generation += 1
      return (chosen, now.distance(to: last.advanced(by: interval)), state.generation)
    }
    guard let wait = decision.wait else {
      forgetThrottle(
        key, in: registry, publishedAt: now, interval: interval, scheduler: scheduler)
      return Just(decision.value).setFailureType(to: Failure.self).eraseToAnyPublisher()
    }
    return Just(decision.value)
      .setFailureType(to: Failure.self)
      .delay(for: wait, scheduler: scheduler)
      .filter { _ in
        // A value that arrived later in the same window supersedes this one, and a cancel by
        // id drops it.
        let published = scheduler.now
        let isNewest =
          registry.withExistingThrottleState(for: key) { state in
            guard state.generation == decision.generation, state.isWaiting else { return false }
            state.lastPublished = published
            state.pending = .none
            return true
          } ?? false
        if isNewest {
          forgetThrottle(
            key, in: registry, publishedAt: published, interval: interval, scheduler: scheduler)
        }
        return isNewest
      }
      .handleEvents(receiveCancel: {
        // The run is cancelled while its value waits: if it is still the value of the window,
        // nothing will publish it at the window's end (see `ThrottleState.Pending.orphaned`).
        registry.withExistingThrottleState(for: key) {
          $0.runCancelled(generation: decision.generation)
        }
      })
      .eraseToAnyPublisher()
  }
  .eraseToAnyPublisher()
}

/// Removes the throttling state of `key` at the end of the window opened by the value published
/// at `published`, if by then that is still the last value published and no run waits to
/// publish a value.
///
/// Such a state acts like no state at all (the next value is published at once, and starts a
/// new window; an orphaned value left in it is ignored once its window has passed), so removing
/// it changes nothing but the memory the registry holds. The removal also checks, on the
/// scheduler's clock, that the window has passed: a scheduler that runs work early
/// (`ImmediateScheduler`, whose clock never moves) keeps the state.
private func forgetThrottle<S: Scheduler>(
  _ key: CancellationKey, in registry: CancellationRegistry,
  publishedAt published: S.SchedulerTimeType,
  interval: S.SchedulerTimeType.Stride, scheduler: S
) {
  scheduler.schedule(after: published.advanced(by: interval)) {
    let now = scheduler.now
    registry.removeThrottleState(for: key) { state in
      guard !state.isWaiting, let last = state.lastPublished as? S.SchedulerTimeType else {
        return false
      }
      return last == published && last.distance(to: now) >= interval
    }
  }
}
