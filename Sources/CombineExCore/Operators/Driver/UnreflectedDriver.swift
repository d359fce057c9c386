/// What an ``OperatorDriver`` whose logic is not reflected (``OperatorLogic/isReflected``:
/// `prefix(untilOutputFrom:)`) attaches to its upstream and hands its downstream instead of
/// itself: the driver, without a description, a custom mirror or a playground value, as
/// Combine's subscription of that operator. A value (no allocation) that passes everything to
/// the driver, and has the driver's `combineIdentifier`.
struct UnreflectedDriver<Logic: OperatorLogic, Downstream: Subscriber>: Subscriber, Subscription
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  typealias Input = Logic.Input
  typealias Failure = Logic.UpstreamFailure

  let driver: OperatorDriver<Logic, Downstream>

  init(_ driver: OperatorDriver<Logic, Downstream>) {
    self.driver = driver
  }

  var combineIdentifier: CombineIdentifier { CombineIdentifier(driver) }

  func receive(subscription: any Subscription) {
    driver.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    driver.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    driver.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    driver.request(demand)
  }

  func cancel() {
    driver.cancel()
  }

  /// The subscriber such a driver attaches to its second input, instead of an ``OtherInput``:
  /// the same, without a description.
  struct Other<Input>: Subscriber {
    typealias Failure = Logic.OtherFailure

    let driver: OperatorDriver<Logic, Downstream>

    init(_ driver: OperatorDriver<Logic, Downstream>) {
      self.driver = driver
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(driver) }

    func receive(subscription: any Subscription) {
      driver.receiveOther(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      driver.receiveOtherValue()
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      driver.receiveOther(completion: completion)
    }
  }
}
