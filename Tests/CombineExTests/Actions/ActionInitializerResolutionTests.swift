import CombineEx
import CombineExTesting
import Testing

/// `Action`'s initializers all accept a trailing closure. These tests write each closure the
/// way user code does, with no annotation on the result, and check the type the compiler
/// inferred and which initializer it picked (`form`): an ambiguity fails to compile, and a
/// change of ranking changes a `form` checked here.
@Suite("Action initializers: which one a closure picks")
struct ActionInitializerResolutionTests {
  @Test("a closure returning .just picks execute: with AnyDeferredPublisher")
  func implicitMemberPicksExecute() {
    let action = Action<Void, Int, Never> { _ in .just(1) }
    #expect(action.form == .execute)
    #expect(action.apply().record().values == [1])
  }

  @Test(
    "a closure returning AnyDeferredPublisher.just(1) picks execute: and infers the action's types")
  func anyDeferredPublisherPicksExecute() {
    let action = Action { (_: Void) in AnyDeferredPublisher<Int, Never>.just(1) }
    #expect(type(of: action) == Action<Void, Int, Never>.self)
    #expect(action.form == .execute)
    #expect(action.apply().record().values == [1])
  }

  @Test("a closure returning a DeferredFuture picks the DeferredFuture form")
  func deferredFuturePicksFutureForm() {
    let action = Action { (input: Int) in
      DeferredFuture<String, ColdTestError> { promise in promise(.success("#\(input)")) }
    }
    #expect(type(of: action) == Action<Int, String, ColdTestError>.self)
    #expect(action.form == .executeDeferredFuture)
    #expect(action.apply(2).record().values == ["#2"])
  }

  @Test(
    "a DeferredFuture built in the closure with the action's types picks the DeferredFuture form")
  func typedDeferredFuturePicksFutureForm() {
    let action = Action<Int, Int, Never> { input in
      DeferredFuture { promise in promise(.success(input * 2)) }
    }
    #expect(action.form == .executeDeferredFuture)
    #expect(action.apply(4).record().values == [8])
  }

  @Test("a closure returning an AnyPublisher picks the any-publisher form")
  func anyPublisherPicksPublisherForm() {
    struct Client {
      func search(_ query: String) -> AnyPublisher<[String], Never> {
        Just([query, query + "!"]).eraseToAnyPublisher()
      }
    }
    let client = Client()
    let action = Action { (query: String) in client.search(query) }
    #expect(type(of: action) == Action<String, [String], Never>.self)
    #expect(action.form == .executePublisher)
    #expect(action.apply("a").record().values == [["a", "a!"]])
  }

  @Test("a closure returning Just picks the any-publisher form")
  func justPicksPublisherForm() {
    let action = Action { (input: Int) in Just(input + 1) }
    #expect(type(of: action) == Action<Int, Int, Never>.self)
    #expect(action.form == .executePublisher)
  }

  @Test("a closure returning an AnyDeferredFuture picks the future builder")
  func anyDeferredFuturePicksFutureBuilder() {
    let action = Action { (_: Void) in AnyDeferredFuture<Int, Never>.just(3) }
    #expect(type(of: action) == Action<Void, Int, Never>.self)
    #expect(action.form == .builderFuture)
    #expect(action.apply().record().values == [3])
  }

  @Test("builder: with enabledIf and .just picks the publisher builder")
  func builderLabelPicksPublisherBuilder() {
    let enabled = MutableProperty(true)
    let action = Action<Void, Int, Never>(enabledIf: Property(enabled), builder: { _ in .just(5) })
    #expect(action.form == .builder)
    #expect(action.apply().record().values == [5])
    enabled.value = false
    #expect(action.apply().record().receivedCompletion == .failure(.disabled))
  }

  @Test("builder: with a closure returning AnyDeferredPublisher infers the action's types")
  func builderLabelInfersTypes() {
    let action = Action(builder: { (text: String) in
      AnyDeferredPublisher<Int, Never>.just(text.count)
    })
    #expect(type(of: action) == Action<String, Int, Never>.self)
    #expect(action.form == .builder)
  }

  @Test("builder: with a closure returning an AnyDeferredFuture picks the future builder")
  func builderLabelWithFuturePicksFutureBuilder() {
    let action = Action<Void, Int, Never>(
      enabledIf: Property(value: true), builder: { _ in AnyDeferredFuture.just(6) })
    #expect(action.form == .builderFuture)
    #expect(action.apply().record().values == [6])
  }

  @Test(
    "the original's Action { DeferredFuture { ... }.eraseToAnyDeferredPublisher() } picks execute:")
  func originalErasedFuturePicksExecute() {
    let action = Action<Int, Int, ColdTestError> { input in
      DeferredFuture { promise in
        promise(input < 0 ? .failure(ColdTestError(1)) : .success(input * 2))
      }
      .eraseToAnyDeferredPublisher()
    }
    #expect(action.form == .execute)
    #expect(action.apply(3).record().values == [6])
  }
}
