import CombineExCore
import CombineExTesting
import Testing

/// An observable object with two `@Published` properties.
private final class Contact: ObservableObject {
  @Published var name: String
  @Published var age: Int
  var notPublished = 0

  init(name: String = "John", age: Int = 24) {
    self.name = name
    self.age = age
  }
}

/// A subclass adding a `@Published` property of its own.
private final class Employee: Person {
  @Published var company = "Apple"
}

/// A base class with a `@Published` property.
private class Person: ObservableObject {
  @Published var nickname = "J"
}

/// An observable object without `@Published` properties, which announces changes itself.
private final class ManualCounter: ObservableObject {
  var count = 0 {
    willSet { objectWillChange.send() }
  }
}

/// An observable object with its own `objectWillChange` publisher.
private final class CustomAnnouncer: ObservableObject {
  let objectWillChange = PassthroughSubject<String, Never>()
  @Published var value = 0
}

/// A main-actor view model, the common shape of an observable object in app code.
@MainActor
private final class MainActorModel: ObservableObject {
  @Published var count = 0
}

@Suite("ObservableObject")
struct ObservableObjectTests {
  @Test("objectWillChange fires once per change of a @Published property")
  func firesOncePerChange() {
    let contact = Contact()
    let recorder = contact.objectWillChange.record()
    contact.age += 1
    contact.name = "Jane"
    contact.age = 30
    #expect(recorder.values.count == 3)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("objectWillChange fires before the property changes")
  func firesBeforeTheChange() {
    let contact = Contact(age: 24)
    var agesSeen: [Int] = []
    let cancellable = contact.objectWillChange.sink { agesSeen.append(contact.age) }
    contact.age = 25
    #expect(agesSeen == [24])
    #expect(contact.age == 25)
    _ = cancellable
  }

  @Test("objectWillChange fires before the property's own subscribers receive the value")
  func firesBeforePropertySubscribers() {
    let contact = Contact()
    var log: [String] = []
    let announcing = contact.objectWillChange.sink { log.append("will change") }
    let observing = contact.$age.sink { log.append("age \($0)") }
    contact.age = 25
    #expect(log == ["age 24", "will change", "age 25"])
    _ = (announcing, observing)
  }

  @Test("a property that is not @Published does not fire objectWillChange")
  func plainPropertyIsSilent() {
    let contact = Contact()
    let recorder = contact.objectWillChange.record()
    contact.notPublished = 1
    #expect(recorder.values.isEmpty)
  }

  @Test("every access returns the same publisher, shared by all @Published properties")
  func samePublisher() {
    let contact = Contact()
    #expect(contact.objectWillChange === contact.objectWillChange)
    let early = contact.objectWillChange.record()
    contact.name = "Jane"
    let late = contact.objectWillChange.record()
    contact.age = 1
    #expect(early.values.count == 2)
    #expect(late.values.count == 1)
    #expect(Contact().objectWillChange !== contact.objectWillChange)
  }

  @Test("the @Published properties of a superclass fire objectWillChange too")
  func superclassProperties() {
    let employee = Employee()
    let recorder = employee.objectWillChange.record()
    employee.nickname = "Jo"
    employee.company = "Acme"
    #expect(recorder.values.count == 2)
  }

  @Test("an object without @Published properties gets a stable publisher that send() drives")
  func manualSend() {
    let counter = ManualCounter()
    #expect(counter.objectWillChange === counter.objectWillChange)
    let recorder = counter.objectWillChange.record()
    counter.count += 1
    counter.count += 1
    #expect(recorder.values.count == 2)
  }

  @Test("many objects without @Published properties each keep their own publisher")
  func manualSendManyObjects() {
    // Enough short-lived objects to make the side table sweep, while `kept` stays alive.
    let kept = ManualCounter()
    let recorder = kept.objectWillChange.record()
    for _ in 0..<500 {
      let transient = ManualCounter()
      let transientRecorder = transient.objectWillChange.record()
      transient.count += 1
      #expect(transientRecorder.values.count == 1)
    }
    kept.count += 1
    #expect(recorder.values.count == 1)
    #expect(kept.objectWillChange === kept.objectWillChange)
  }

  @Test("objectWillChange does not keep the object alive")
  func doesNotRetainObject() {
    weak var weakContact: Contact?
    weak var weakCounter: ManualCounter?
    var recorders: [TestSubscriber<Void, Never>] = []
    do {
      let contact = Contact()
      let counter = ManualCounter()
      weakContact = contact
      weakCounter = counter
      recorders.append(contact.objectWillChange.record())
      recorders.append(counter.objectWillChange.record())
    }
    #expect(weakContact == nil)
    #expect(weakCounter == nil)
  }

  @Test("a class may declare its own objectWillChange publisher")
  func customPublisher() {
    let announcer = CustomAnnouncer()
    let recorder = announcer.objectWillChange.record()
    announcer.objectWillChange.send("custom")
    announcer.value = 1
    #expect(recorder.values == ["custom"])
  }

  @Test("ObservableObjectPublisher honours demand")
  func publisherHonoursDemand() {
    let publisher = ObservableObjectPublisher()
    let recorder = publisher.record(initialDemand: .max(1))
    publisher.send()
    publisher.send()
    #expect(recorder.values.count == 1)
    recorder.request(.max(1))
    publisher.send()
    #expect(recorder.values.count == 2)
  }

  @Test("a main-actor class can be an ObservableObject with @Published properties")
  @MainActor
  func mainActorModel() {
    let model = MainActorModel()
    let announcements = model.objectWillChange.record()
    let counts = model.$count.record()
    model.count += 1
    #expect(announcements.values.count == 1)
    #expect(counts.values == [0, 1])
  }

  @Test("objectWillChange's subscriptions describe themselves as ObservableObjectPublisher")
  func subscriptionDescription() {
    var description: String?
    ObservableObjectPublisher().subscribe(
      AnySubscriber(receiveSubscription: { description = "\($0)" }))
    #expect(description == "ObservableObjectPublisher")
  }
}
