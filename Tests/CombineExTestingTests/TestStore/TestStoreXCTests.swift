#if canImport(XCTest)
  import CombineExStore
  import CombineExTesting
  import XCTest

  /// TestStore inside an XCTest test, where no Swift Testing test is running: its failures go
  /// through `XCTFail`, at the caller's file and line. The test case catches the failures of the
  /// test store while `capturing` is set (so that the expected failure does not fail the test)
  /// and checks them; any other failure is recorded as usual.
  final class TestStoreXCTests: XCTestCase {
    private var capturing = false
    private var captured: [(description: String, file: String, line: Int)] = []

    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      if capturing {
        captured.append((description, filePath, lineNumber))
      } else {
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }

    func testFailureIsReportedThroughXCTFailAtTheCallersLine() {
      let store = makeFeatureStore()
      capturing = true
      let line = #line + 1
      store.send(FeatureAction.increment) { $0.count = 2 }
      capturing = false
      XCTAssertEqual(captured.count, 1)
      XCTAssertEqual(captured.first?.line, line)
      XCTAssertEqual(captured.first?.file, #filePath)
      XCTAssertTrue(captured.first?.description.contains("does not match the expectation") == true)
    }

    func testPassingStepsRecordNoFailure() {
      let scheduler = DispatchQueue.test
      let store = makeFeatureStore(scheduler: scheduler)
      capturing = true
      store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
      scheduler.advance(by: .seconds(1))
      store.receive(FeatureAction.factLoaded("0 is a good number")) {
        $0.fact = "0 is a good number"
        $0.isLoading = false
      }
      store.finish()
      capturing = false
      XCTAssertTrue(captured.isEmpty)
    }
  }
#endif
