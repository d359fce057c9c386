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
  /// (like TCA). Cancelled runs finish.
  public func debounce<ID: Hashable, S: Scheduler>(
    id: ID, for dueTime: S.SchedulerTimeType.Stride, scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Effect {
    let work = self
    return Effect(
      Just(())
        .setFailureType(to: Failure.self)
        .delay(for: dueTime, scheduler: scheduler, options: options)
        .flatMap { work }
    )
    .cancellable(id: id, cancelInFlight: true)
    .withToken(token)
  }

  /// Publishes at most one value per `interval` for `id`, across runs of effects throttled with
  /// that id: a value that arrives inside the window waits for its end, then is published (the
  /// newest value if `latest` is `true`, otherwise the first one of the window).
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
  /// Times are read from `scheduler`, which may be any scheduler (a test scheduler in tests).
  /// The state kept for `id` is dropped at the end of a window in which no value waits (a
  /// no-op task is scheduled on `scheduler` for that moment), so ids used once cost nothing
  /// afterwards.
  public func throttle<ID: Hashable, S: Scheduler>(
    id: ID, for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  ) -> Effect {
    let key = CancellationKey(id)
    let registry = CancellationRegistry.shared
    let throttled = upstream.flatMap { value -> AnyPublisher<Output, Failure> in
      let now = scheduler.now
      let decision = registry.withThrottleState(for: key) {
        state -> (value: Output, wait: S.SchedulerTimeType.Stride?, generation: Int) in
        guard let last = state.lastPublished as? S.SchedulerTimeType else {
          state.lastPublished = now
          state.pending = nil
          return (value, nil, state.generation)
        }
        let chosen = latest ? value : (state.pending as? Output ?? value)
        if last.distance(to: now) >= interval {
          state.lastPublished = now
          state.pending = nil
          return (chosen, nil, state.generation)
        }
        state.pending = chosen
        state.generation += 1
        return (chosen, now.distance(to: last.advanced(by: interval)), state.generation)
      }
      guard let wait = decision.wait else {
        forgetThrottle(key, publishedAt: now, interval: interval, scheduler: scheduler)
        return Just(decision.value).setFailureType(to: Failure.self).eraseToAnyPublisher()
      }
      return Just(decision.value)
        .setFailureType(to: Failure.self)
        .delay(for: wait, scheduler: scheduler)
        .filter { _ in
          // A value that arrived later in the same window supersedes this one.
          let published = scheduler.now
          let isNewest = registry.withThrottleState(for: key) { state in
            guard state.generation == decision.generation else { return false }
            state.lastPublished = published
            state.pending = nil
            return true
          }
          if isNewest {
            forgetThrottle(key, publishedAt: published, interval: interval, scheduler: scheduler)
          }
          return isNewest
        }
        .eraseToAnyPublisher()
    }
    return Effect(throttled).cancellable(id: id, cancelInFlight: true).withToken(token)
  }
}

/// Removes the throttling state of `key` at the end of the window opened by the value published
/// at `published`, if by then that is still the last value published and no value is waiting.
///
/// Such a state acts like no state at all (the next value is published at once, and starts a
/// new window), so removing it changes nothing but the memory the registry holds. The removal
/// also checks, on the scheduler's clock, that the window has passed: a scheduler that runs work
/// early (`ImmediateScheduler`, whose clock never moves) keeps the state.
private func forgetThrottle<S: Scheduler>(
  _ key: CancellationKey, publishedAt published: S.SchedulerTimeType,
  interval: S.SchedulerTimeType.Stride, scheduler: S
) {
  scheduler.schedule(after: published.advanced(by: interval)) {
    let now = scheduler.now
    CancellationRegistry.shared.removeThrottleState(for: key) { state in
      guard state.pending == nil, let last = state.lastPublished as? S.SchedulerTimeType else {
        return false
      }
      return last == published && last.distance(to: now) >= interval
    }
  }
}
