import CombineExCore
import Testing

/// An object with a property for `assign(to:on:)` to write.
private final class Model {
  var count = 0
  var history: [Int] = []
  var countAndRecord: Int {
    get { count }
    set {
      count = newValue
      history.append(newValue)
    }
  }
}

@Suite("assign(to:on:) and Subscribers.Assign")
struct AssignTests {
  @Test("assign(to:on:) writes each value to the key path, in order")
  func writesEachValue() {
    let subject = PassthroughSubject<Int, Never>()
    let model = Model()
    let cancellable = subject.assign(to: \.countAndRecord, on: model)
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(model.count == 3)
    #expect(model.history == [1, 2, 3])
    withExtendedLifetime(cancellable) {}
  }

  @Test("nothing is written after cancel")
  func nothingAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let model = Model()
    let cancellable = subject.assign(to: \.countAndRecord, on: model)
    subject.send(1)
    cancellable.cancel()
    subject.send(2)
    #expect(model.history == [1])
  }

  @Test("the subscription retains the object while it is subscribed")
  func retainsObjectWhileSubscribed() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakModel: Model?
    let cancellable: AnyCancellable
    do {
      let model = Model()
      weakModel = model
      cancellable = subject.assign(to: \.count, on: model)
    }
    #expect(weakModel != nil)
    subject.send(4)
    #expect(weakModel?.count == 4)
    withExtendedLifetime(cancellable) {}
  }

  @Test("the object is released when the publisher completes, while the cancellable lives on")
  func releasesObjectOnCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakModel: Model?
    let cancellable: AnyCancellable
    do {
      let model = Model()
      weakModel = model
      cancellable = subject.assign(to: \.count, on: model)
    }
    subject.send(1)
    #expect(weakModel != nil)
    subject.send(completion: .finished)
    #expect(weakModel == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("the object is released on cancel, while the cancellable lives on")
  func releasesObjectOnCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakModel: Model?
    let cancellable: AnyCancellable
    do {
      let model = Model()
      weakModel = model
      cancellable = subject.assign(to: \.count, on: model)
    }
    #expect(weakModel != nil)
    cancellable.cancel()
    #expect(weakModel == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("a synchronous publisher assigns every value and releases the object at once")
  func synchronousPublisher() {
    weak var weakModel: Model?
    let cancellable: AnyCancellable
    do {
      let model = Model()
      weakModel = model
      cancellable = [1, 2, 3].publisher.assign(to: \.countAndRecord, on: model)
      #expect(model.history == [1, 2, 3])
    }
    #expect(weakModel == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("Subscribers.Assign exposes its object and key path, and lets go of the object at the end")
  func properties() {
    let model = Model()
    let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
    #expect(assign.object === model)
    #expect(assign.keyPath == \Model.count)
    Just(9).subscribe(assign)
    #expect(model.count == 9)
    #expect(assign.object == nil)
  }

  @Test("Subscribers.Assign's object is nil after cancel")
  func objectNilAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let model = Model()
    let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
    subject.subscribe(assign)
    #expect(assign.object === model)
    assign.cancel()
    #expect(assign.object == nil)
    subject.send(5)
    #expect(model.count == 0)
  }

  @Test("Subscribers.Assign's description names the object's type, as in Combine")
  func description() {
    let assign = Subscribers.Assign(object: Model(), keyPath: \Model.count)
    #expect(assign.description == "Assign Model.")
    #expect(String(describing: assign) == "Assign Model.")
  }

  @Test("Subscribers.Assign requests unlimited values and cancels a second subscription")
  func demandAndSecondSubscription() {
    let upstream = ManualUpstream<Int, Never>()
    let second = ManualUpstream<Int, Never>()
    let model = Model()
    let assign = Subscribers.Assign(object: model, keyPath: \Model.countAndRecord)
    upstream.subscribe(assign)
    #expect(upstream.requests == [.unlimited])
    #expect(upstream.send(1) == .none)
    second.subscribe(assign)
    #expect(second.requests.isEmpty)
    #expect(second.cancelCount == 1)
    #expect(model.history == [1])
  }
}
