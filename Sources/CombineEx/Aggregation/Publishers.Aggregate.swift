import CombineExCore

extension Publishers {
  /// A publisher that combines any number of publishers, of any output types, with one
  /// strategy: `combineLatest` or `zip`.
  ///
  /// It is what the original CombineEx's wider `combineLatest` and `zip` return (with 4 to 9
  /// other publishers, the static `combineLatest` of 2 to 10, and the array forms):
  ///
  /// ```swift
  /// let a = CurrentValueSubject<Int, Never>(1)
  /// let b = CurrentValueSubject<String, Never>("b")
  /// let c = CurrentValueSubject<Bool, Never>(true)
  /// let d = CurrentValueSubject<Double, Never>(0.5)
  /// let e = CurrentValueSubject<Int, Never>(5)
  /// let cancellable = a.combineLatest(b, c, d, e).sink { print($0) }
  /// // Prints: (1, "b", true, 0.5, 5)
  /// e.send(6)
  /// // Prints: (1, "b", true, 0.5, 6)
  /// ```
  ///
  /// The rules are those of Combine's `CombineLatest` and `Zip`, which it shares its engine
  /// with:
  /// - **Subscription.** For each subscriber the `componentBuilder` runs and adds the inputs;
  ///   the subscriber receives its subscription; then the inputs are subscribed in order (once
  ///   the combination is over, by a synchronous failure or a cancel, the rest are not). With
  ///   no inputs at all, the subscriber finishes at once.
  /// - **Values.** `combineLatest`: once every input has published, each value that arrives
  ///   while the subscriber has demand publishes the latest value of every input; a value
  ///   that arrives without demand only replaces its input's latest value. `zip`: the i-th
  ///   output combines the i-th value of every input, published when the subscriber has
  ///   demand; values wait meanwhile.
  /// - **Demand.** The subscriber's requests pass through to every input, so the subscriber
  ///   never receives more than it asked for, and `zip` buffers no more than it was asked for.
  ///   (The original CombineEx requested unlimited values and ignored the subscriber's demand.)
  /// - **Completion.** `combineLatest` finishes once every input has finished, or as soon as
  ///   an input finishes without having published (nothing could ever be published then);
  ///   `zip` finishes once an input has finished and its values are used up. The first
  ///   failure cancels the other inputs and is delivered at once. The inputs still running
  ///   are cancelled when the result finishes.
  /// - **Cancellation** cancels every input and releases the subscriber.
  /// - **Threading.** The inputs may publish from any threads at once: the subscriber receives
  ///   one value at a time, in the order the values arrived, and a sender never waits for
  ///   another. A value published from inside the subscriber's `receive` is delivered after
  ///   it returns. `aggregationBlock` runs on the delivering thread, outside any lock.
  public struct Aggregate<Output, Failure: Error>: Publisher {
    /// How the inputs' values are combined.
    public enum Strategy: Sendable {
      /// Publishes, whenever any input publishes, the latest value of every input.
      case combineLatest

      /// Publishes the i-th value of every input, once every input has published an i-th
      /// value.
      case zip
    }

    // Internal and inlinable, with the machinery under them: the subscriber's module
    // specializes the per-value path (combining storage, output subscriber, aggregation block)
    // for its types instead of running it generic, with a metadata lookup per type per value.
    @usableFromInline
    let strategy: Strategy
    @usableFromInline
    let componentBuilder: (any AggregatePublisherAggregator<Failure>) -> Void
    @usableFromInline
    let aggregationBlock: ([Any]) -> Output
    /// The inputs, when the publishers were known where the aggregate was made (the
    /// fixed-arity and array forms); `componentBuilder` is not used then.
    @usableFromInline
    let inputs: [AggregateInput<Void, Failure>]?

    /// Creates a publisher that combines the publishers `componentBuilder` adds, with
    /// `strategy`, making each output with `aggregationBlock` from one value per input (in the
    /// order the inputs were added).
    ///
    /// ```swift
    /// let sum = Publishers.Aggregate<Int, Never>(strategy: .zip) { aggregator in
    ///   aggregator.add([1, 2].publisher)
    ///   aggregator.add([10, 20].publisher)
    /// } aggregationBlock: { values in values.reduce(0) { $0 + ($1 as! Int) } }
    /// let cancellable = sum.sink { print($0) }
    /// // Prints: 11, 22
    /// ```
    @inlinable
    public init(
      strategy: Strategy,
      componentBuilder: @escaping (any AggregatePublisherAggregator<Failure>) -> Void,
      aggregationBlock: @escaping ([Any]) -> Output
    ) {
      self.strategy = strategy
      self.componentBuilder = componentBuilder
      self.aggregationBlock = aggregationBlock
      inputs = nil
    }

    /// An aggregate of `inputs`, made by code that knew their publishers.
    @inlinable
    init(
      strategy: Strategy, inputs: [AggregateInput<Void, Failure>],
      aggregationBlock: @escaping ([Any]) -> Output
    ) {
      self.strategy = strategy
      componentBuilder = { _ in }
      self.aggregationBlock = aggregationBlock
      self.inputs = inputs
    }

    /// Adds the inputs, hands the subscriber its subscription, then subscribes the inputs.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      if let inputs {
        attach(subscriber, to: inputs)
        return
      }
      switch strategy {
      case .combineLatest:
        attach(subscriber, combining: AggregateLatestValues.self)
      case .zip:
        attach(subscriber, combining: AggregateZipQueues.self)
      }
    }

    @inlinable
    func attach<Values: AggregateValues, S: Subscriber>(
      _ subscriber: S, combining: Values.Type
    ) where S.Input == Output, S.Failure == Failure {
      typealias Downstream = AggregateOutputSubscriber<S>
      let collector = AggregateCollector<Values, Downstream>()
      componentBuilder(collector)
      let inputs = collector.close()
      guard !inputs.isEmpty else {
        Empty<Output, Failure>().receive(subscriber: subscriber)
        return
      }
      let storage = CombiningStorage(
        downstream: Downstream(downstream: subscriber, aggregationBlock: aggregationBlock),
        name: "Aggregate", values: Values(inputCount: inputs.count))
      storage.start()
      for (index, subscribe) in inputs.enumerated() {
        subscribe(storage, index)
      }
    }
  }
}

extension Publishers.Aggregate {
  /// Hands the subscriber its subscription, then subscribes `inputs` in order, through a
  /// storage whose types do not depend on the subscriber's.
  @inlinable
  func attach<S: Subscriber>(_ subscriber: S, to inputs: [AggregateInput<Void, Failure>])
  where S.Input == Output, S.Failure == Failure {
    guard !inputs.isEmpty else {
      Empty<Output, Failure>().receive(subscriber: subscriber)
      return
    }
    let sink = AggregateSink(subscriber, aggregationBlock: aggregationBlock)
    switch strategy {
    case .combineLatest:
      let storage = CombiningStorage(
        downstream: sink, name: "Aggregate", values: AggregateLatestValues(inputCount: inputs.count)
      )
      storage.start()
      for (index, input) in inputs.enumerated() { input.subscribeLatest(storage, index) }
    case .zip:
      let storage = CombiningStorage(
        downstream: sink, name: "Aggregate", values: AggregateZipQueues(inputCount: inputs.count))
      storage.start()
      for (index, input) in inputs.enumerated() { input.subscribeZip(storage, index) }
    }
  }
}

extension Publishers.Aggregate {
  /// An aggregate of `publishers`, whose output is the tuple of their values: what the
  /// fixed-arity `combineLatest` and `zip` forms build.
  ///
  /// The publishers come as ``AggregateInput``s, each made where its publisher's type is known,
  /// because a parameter pack cannot (yet) require every element's `Failure` to be the same
  /// type.
  @inlinable
  init<each Value>(strategy: Strategy, _ publishers: repeat AggregateInput<each Value, Failure>)
  where Output == (repeat each Value) {
    var inputs: [AggregateInput<Void, Failure>] = []
    repeat inputs.append((each publishers).erased)
    self.init(strategy: strategy, inputs: inputs) { values in
      var position = 0
      func next<Element>(_: Element.Type) -> Element {
        defer { position += 1 }
        // The values come in the order the publishers were added, one per publisher.
        return values[position] as! Element
      }
      return (repeat next((each Value).self))
    }
  }
}

extension Publishers.Aggregate {
  /// An aggregate of the publishers of `publishers`, whose output is the array of their values,
  /// in order: what the array forms build.
  @inlinable
  init<Input: Publisher>(strategy: Strategy, _ publishers: [Input])
  where Output == [Input.Output], Input.Failure == Failure {
    self.init(
      strategy: strategy, inputs: publishers.map { AggregateInput($0).erased }
    ) { values in
      values.map { $0 as! Input.Output }
    }
  }
}
